def f(x):
	if x:
		log(x)
		return 2
	return 0
