"FD
'https://clinic.example.org/appointmentsAppointments"	€δÿ‹™ιο(