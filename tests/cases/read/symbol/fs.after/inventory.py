"""A small inventory service."""

import dataclasses
import functools

MAX_ITEMS = 500
DEFAULT_UNIT = "piece"
_cache = {}


@dataclasses.dataclass
class Item:
    """One stocked item."""

    name: str
    count: int = 0

    def restock(self, amount):
        self.count += int(amount)
        return self.count

    @property
    def empty(self):
        return self.count == 0


class Inventory:
    """Items by name."""

    def __init__(self):
        self.items = {}

    def add(self, item):
        if len(self.items) >= MAX_ITEMS:
            raise ValueError("inventory is full")
        self.items[item.name] = item

    async def refresh(self, source):
        for name, count in await source.counts():
            self.items[name].count = count

    class Report:
        def __init__(self, inventory):
            self.inventory = inventory

        def lines(self):
            return [f"{i.name}: {i.count}" for i in self.inventory.items.values()]


def cached(function):
    @functools.wraps(function)
    def wrapper(*args):
        if args not in _cache:
            _cache[args] = function(*args)
        return _cache[args]

    return wrapper


@cached
def total(inventory):
    return sum(item.count for item in inventory.items.values())


if __name__ == "__main__":
    print(total(Inventory()))
