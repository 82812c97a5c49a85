"86
https://older.example.com/a
Older page"	€ÑÏ…üèï(