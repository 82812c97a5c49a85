
B>
	ΐΜ’…όθο	€ΡΟ…όθο$
Old pagehttps://old.example.com/ 
GC
	€ΡΟ…όθο	ΐΥ†όθο)

Older pagehttps://older.example.com/a ÿÿÿÿÿÿÿÿÿ