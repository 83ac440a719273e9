"""A calculation as every face and document presents it (`calculation.py`), with where a column's load stands
against its interaction curve (`interaction.py`), a concrete section's title and rows of bars (`sections.py`), and
the text every face writes alike (`formatting.py`)."""
