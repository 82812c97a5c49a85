
@<
	ΐπϊόθο	€‚ψιο"
Inboxhttps://mail.example.com/ 
KG
	ΐΟ¥Άώθο	€ψ‰ύ„ιο-
Story 79!https://news.example.com/story/79 P
\
X
	€ΧυΏ€ιο	€ςΖ‹ιο>
Brest tides, this week$https://tides.example.net/brest/week 
RH
	ΐ…–ιο	€μόή‚ιο.
Glossary"https://tides.example.net/glossary "
Tides*‚΅