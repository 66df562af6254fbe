from vendor.minilib import total


def invoice_total(accounts):
    return total(account["amount"] for account in accounts)
