"‡„
1https://news.example.org/world/2026/11/20/relatedRelated story"	€Μ„δόθο(23
/https://news.example.org/world/2026/11/20/story