def helper(text):
    return text.strip()
