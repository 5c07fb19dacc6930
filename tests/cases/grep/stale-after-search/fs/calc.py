RATE = 0.2


def tax(amount):
    return amount * RATE


def net(amount):
    return amount - tax(amount)
