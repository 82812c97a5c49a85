"è
rinternal://local/sessionrestore?url=https%3A%2F%2Fnews.example.com%2F&uuidkey=3B2F7C1E-0A4D-4C6B-9E8F-1A2B3C4D5E6F
Front page"	€Ôâ¢şèï(T
https://news.example.com/world/World"	€â°¿şèï(2
https://news.example.com/