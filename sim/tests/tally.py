"""tally.py - the checks of lfc-sim's Python tests: each printed as `  ok   what` or
`  FAIL what` and counted, so that a test can say how many ran and exit 1 if any failed."""


class Tally:
    def __init__(self):
        self.checks = 0
        self.fails = 0

    def ok(self, cond, what):
        self.checks += 1
        print(("  ok   " if cond else "  FAIL ") + what)
        if not cond:
            self.fails += 1
