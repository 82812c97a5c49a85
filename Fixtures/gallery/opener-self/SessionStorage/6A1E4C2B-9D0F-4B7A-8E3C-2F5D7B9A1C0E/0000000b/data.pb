"=;
"https://tides.example.net/glossaryGlossary"	€Ϊ–ιο(