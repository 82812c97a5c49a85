"31
https://old.example.com/Old page"	ΐΜ’…όθο(