class BaseClass:
    def search(self):
        pass

    def other(self):
        pass


class Subclass(BaseClass):
    def search(self):
        pass
