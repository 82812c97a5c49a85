
@<
	ΐπϊόθο	€‚ψιο"
Inboxhttps://mail.example.com/ 
KG
	ΐΟ¥Άώθο	€ψ‰ύ„ιο-

Front pagehttps://news.example.com/world/ 
\
X
	€ΧυΏ€ιο	€ςΖ‹ιο>
Brest tides, this week$https://tides.example.net/brest/week 
RH
	ΐ…–ιο	€μόή‚ιο.
Glossary"https://tides.example.net/glossary "
Tides*‚΅