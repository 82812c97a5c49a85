"Ή4
https://news.example.org/
Front page"	€­΄όθο(
/https://news.example.org/world/2026/11/20/story Story: ΓnΓ―cΓ¶dΓ© and ζ—¥ζ¬θª"	€ϋΠόθο(2
https://news.example.org/