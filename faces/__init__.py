"""The faces: the terminal (`faces.cli`) and the web app (`faces.web`).

They collect input, call the application service (`app`) and render what it
returns; they never touch the store, the model server or the tools.
"""
