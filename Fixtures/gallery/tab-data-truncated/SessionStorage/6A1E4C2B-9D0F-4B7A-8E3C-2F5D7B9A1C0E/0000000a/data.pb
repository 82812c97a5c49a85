"ýN
)https://search.example.org/?q=tide+tablestide t