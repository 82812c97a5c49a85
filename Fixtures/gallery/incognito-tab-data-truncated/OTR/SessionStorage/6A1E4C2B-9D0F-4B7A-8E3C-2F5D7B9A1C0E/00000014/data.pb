"n5
https://gifts.example.com/
Gi