print("analyze")
