print("tables")
