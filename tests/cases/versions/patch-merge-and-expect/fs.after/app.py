def load(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def parse(text):
    rows = []
    for line in text.splitlines():
        rows.append(line.split(","))
    return rows


def total(rows):
    return sum(int(row[1]) for row in rows)


def main():
    rows = parse(load("data.csv"))
    print(total(rows))
