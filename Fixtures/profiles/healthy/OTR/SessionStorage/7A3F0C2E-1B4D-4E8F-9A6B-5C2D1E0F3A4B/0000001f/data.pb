"=;
 https://private.example.com/gift
Gift ideas"	€Ε§ώθο(