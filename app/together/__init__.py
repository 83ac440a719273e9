"""Working together: telling the people a change concerns (`notifications.py`) and what an open page watches to
draw itself again when others change what it shows (`live.py`)."""
