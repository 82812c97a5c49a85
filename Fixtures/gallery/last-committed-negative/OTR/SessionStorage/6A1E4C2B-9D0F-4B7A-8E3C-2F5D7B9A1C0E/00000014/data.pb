"n5
https://gifts.example.com/
Gift ideas"	€Ψςν–ιο(3
https://gifts.example.com/cartCart"	€ωό—ιο(