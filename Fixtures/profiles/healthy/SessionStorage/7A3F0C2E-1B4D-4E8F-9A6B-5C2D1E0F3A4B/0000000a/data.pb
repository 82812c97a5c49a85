"KI
https://shop.example.com/cartCart (2)"	ЂРіГэип(:

X-Clientios