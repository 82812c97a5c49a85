"ύN
)https://search.example.org/?q=tide+tablestide tables - Search"	€ΰοΐ€ιο(\
https://tides.example.net/brestBrest tides"	€ξ½έ€ιο(2
https://search.example.org/K
$https://tides.example.net/brest/weekBrest tides, this week"	€ƒ³ιο(