fn old_name() {}
