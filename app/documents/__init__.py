"""The project's documents: the workspace folder's index (`library`, the process's one, followed by `watch`, its
files stored by `saver`, scanned pages read by `scans`, uploads written by `uploads`), searched by words and
meaning (`ranking`), a cited page drawn (`pages`), and the library as one user's application uses it
(`user_documents`)."""
