"""(module list written below)"""
