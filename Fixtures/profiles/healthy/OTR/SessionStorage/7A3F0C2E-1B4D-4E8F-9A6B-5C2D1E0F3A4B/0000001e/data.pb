"64
https://private.example.com/Private"	А╘тв■шя(