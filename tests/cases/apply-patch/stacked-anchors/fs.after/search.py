class BaseClass:
    def search(self):
        raise NotImplementedError()

    def other(self):
        pass


class Subclass(BaseClass):
    def search(self):
        return []
