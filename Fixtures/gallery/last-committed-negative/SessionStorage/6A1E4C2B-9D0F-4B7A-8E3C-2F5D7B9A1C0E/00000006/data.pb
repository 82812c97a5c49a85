"—ýÿÿÿÿÿÿÿÿ4
https://news.example.com/
Front page"	€Ôâ¢þèï(T
https://news.example.com/world/World"	€â°¿þèï(2
https://news.example.com/