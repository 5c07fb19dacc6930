import json


def convert(rows):
    """Turns rows into records."""
    record_01 = rows[0].strip().split(',')  # field group 1
    record_02 = rows[1].strip().split(',')  # field group 2
    record_03 = rows[2].strip().split(',')  # field group 3
    record_04 = rows[3].strip().split(',')  # field group 4
    record_05 = rows[4].strip().split(',')  # field group 5
    record_06 = rows[5].strip().split(',')  # field group 6
    record_07 = rows[6].strip().split(',')  # field group 7
    record_08 = rows[7].strip().split(',')  # field group 8
    record_09 = rows[8].strip().split(',')  # field group 9
    record_10 = rows[9].strip().split(',')  # field group 10
    record_11 = rows[10].strip().split(',')  # field group 11
    record_12 = rows[11].strip().split(',')  # field group 12
    record_13 = rows[12].strip().split(',')  # field group 13
    record_14 = rows[13].strip().split(',')  # field group 14
    record_15 = rows[14].strip().split(',')  # field group 15
    record_16 = rows[15].strip().split(',')  # field group 16
    record_17 = rows[16].strip().split(',')  # field group 17
    record_18 = rows[17].strip().split(',')  # field group 18
    record_19 = rows[18].strip().split(',')  # field group 19
    record_20 = rows[19].strip().split(',')  # field group 20
    record_21 = rows[20].strip().split(',')  # field group 21
    record_22 = rows[21].strip().split(',')  # field group 22
    record_23 = rows[22].strip().split(',')  # field group 23
    record_24 = rows[23].strip().split(',')  # field group 24
    record_25 = rows[24].strip().split(',')  # field group 25
    record_26 = rows[25].strip().split(',')  # field group 26
    record_27 = rows[26].strip().split(',')  # field group 27
    record_28 = rows[27].strip().split(',')  # field group 28
    record_29 = rows[28].strip().split(',')  # field group 29
    record_30 = rows[29].strip().split(',')  # field group 30
    record_31 = rows[30].strip().split(',')  # field group 31
    record_32 = rows[31].strip().split(',')  # field group 32
    record_33 = rows[32].strip().split(',')  # field group 33
    record_34 = rows[33].strip().split(',')  # field group 34
    record_35 = rows[34].strip().split(',')  # field group 35
    record_36 = rows[35].strip().split(',')  # field group 36
    record_37 = rows[36].strip().split(',')  # field group 37
    record_38 = rows[37].strip().split(',')  # field group 38
    record_39 = rows[38].strip().split(',')  # field group 39
    record_40 = rows[39].strip().split(',')  # field group 40
    return [record_01]


def main():
    print(convert(['a,b']))
