
EA
	€’‹σύθο	€±Χ‹ιο'
Map https://maps.example.com/place/1 