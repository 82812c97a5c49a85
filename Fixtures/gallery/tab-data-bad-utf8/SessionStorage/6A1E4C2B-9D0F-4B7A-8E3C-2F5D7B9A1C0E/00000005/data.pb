"1/
https://mail.example.com/Inÿox"	€õ·‰üèï(