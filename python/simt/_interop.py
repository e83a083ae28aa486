"""placeholder"""
def device_view(obj):
    return None
