
D@
	ΐΣµν–ιο	€ωό—ιο&
Carthttps://gifts.example.com/cart 
UQ
	ΐίΒ‹™ιο	€δÿ‹™ιο7
Appointments'https://clinic.example.org/appointments 