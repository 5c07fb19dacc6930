package bank;

import java.util.ArrayList;
import java.util.List;

/** A bank account with a history. */
public class Account {
    public static final int MAX_DAILY = 10_000;
    private final String owner;
    private long balance;
    List<String> history = new ArrayList<>();

    public Account(String owner) {
        this.owner = owner;
    }

    public long deposit(long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        balance += amount;
        history.add("deposit " + amount);
        return balance;
    }

    protected boolean withdraw(long amount) {
        if (amount > balance || amount > MAX_DAILY) {
            return false;
        }
        balance -= amount;
        history.add("withdraw " + amount);
        return true;
    }

    private void audit() {
        for (String line : history) {
            System.out.println(owner + ": " + line);
        }
    }

    public enum Kind {
        CHECKING,
        SAVINGS;

        public boolean earnsInterest() {
            return this == SAVINGS;
        }
    }

    interface Listener {
        void changed(Account account);
    }

    record Statement(String owner, long balance) {}
}
