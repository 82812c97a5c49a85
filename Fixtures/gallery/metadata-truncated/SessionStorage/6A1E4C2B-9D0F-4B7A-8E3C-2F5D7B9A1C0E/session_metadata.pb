
@<
	Àðúˆüèï	€˜‚øŠéï"
Inboxhttps://mail.example.com/ 
FB
	ÀÏ¥¢þèï	€ø‰ý„éï(
Worldhttps://news.example.com/