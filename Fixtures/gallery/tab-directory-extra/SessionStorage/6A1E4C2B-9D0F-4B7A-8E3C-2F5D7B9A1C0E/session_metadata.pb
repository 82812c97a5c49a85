
@<
	ΐπϊόθο	€‚ψιο"
Inboxhttps://mail.example.com/ 
FB
	ΐΟ¥Άώθο	€ψ‰ύ„ιο(
Worldhttps://news.example.com/world/ 
\
X
	€ΧυΏ€ιο	€ςΖ‹ιο>
Brest tides, this week$https://tides.example.net/brest/week 
RH
	ΐ…–ιο	€μόή‚ιο.
Glossary"https://tides.example.net/glossary "
Tides*‚΅