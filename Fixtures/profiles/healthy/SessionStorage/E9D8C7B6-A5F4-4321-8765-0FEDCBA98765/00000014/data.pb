"64
 https://maps.example.com/place/1Map"	€’‹σύθο(