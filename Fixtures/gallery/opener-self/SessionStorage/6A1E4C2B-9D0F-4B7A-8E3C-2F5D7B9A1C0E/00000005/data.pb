"1/
https://mail.example.com/Inbox"	€υ·‰όθο(