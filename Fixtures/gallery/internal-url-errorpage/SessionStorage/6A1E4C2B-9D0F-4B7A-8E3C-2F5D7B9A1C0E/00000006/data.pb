"î“
xinternal://local/errorpage?url=https%3A%2F%2Fnews.example.com%2F&code=-1009&uuidkey=3B2F7C1E-0A4D-4C6B-9E8F-1A2B3C4D5E6F
Front page"	€Ôâ¢þèï(T
https://news.example.com/world/World"	€â°¿þèï(2
https://news.example.com/