"DB
https://calendar.example.com/Calendar β€” Week 47"	€Άόθο(