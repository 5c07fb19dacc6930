"""A small shop."""

TAX = 0.2


class Item:
    def __init__(self, name, price):
        self.name = name
        self.price = price

    def total(self):
        return self.price * (1 + TAX)


class Basket:
    def __init__(self):
        self.items = []

    def add(self, item):
        self.items.append(item)

    def total(self):
        return sum(item.total() for item in self.items)


def receipt(basket):
    return f"{len(basket.items)} items, {basket.total():.2f}"
