"""Task runners, job functions and bots: the parts of ironworks that act on their own."""
