"–V
-https://search.example.net/?q=session+restoresession restore - Search"	€ά“ύθο(?
 https://docs.example.net/restoreRestoring tabs"	€»Ύύθο(y
%https://docs.example.net/restore#lazy-https://docs.example.net/restore#lazy-loadingRestoring tabs: lazy"	€θ ύθο(