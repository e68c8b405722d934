// SPDX-License-Identifier: GPL-3.0-or-later
// The YAML view and editor of objects: what is shown and applied unchanged is the same object;
// text that is not one object is refused with the line, never half read.
#include "boundedjson.h"
#include "yamlconvert.h"

#include <QJsonDocument>
#include <QTest>

using gpudesk::objectJson;
using gpudesk::objectYaml;

class TestYamlConvert : public QObject
{
    Q_OBJECT
private slots:
    void roundTripKeepsTypes_data();
    void roundTripKeepsTypes();
    void textAfterTheObjectIsRefused_data();
    void textAfterTheObjectIsRefused();
    void deepNesting_data();
    void deepNesting();
    void nestingCountedOnTheBytes();
};

void TestYamlConvert::roundTripKeepsTypes_data()
{
    QTest::addColumn<QByteArray>("json");
    // Found by fuzz_yaml: a Node's condition status "True" came back as the boolean true.
    QTest::addRow("condition status") << QByteArray(
        R"({"status":{"conditions":[{"type":"Ready","status":"True"},{"status":"False"}]}})");
    QTest::addRow("null words") << QByteArray(R"({"a":"Null","b":"~","c":"","d":null})");
    QTest::addRow("numbers as strings")
        << QByteArray(R"({"a":"8","b":"1.5","c":"-2e3","d":"0x1F","e":".inf","f":8,"g":1.5})");
    QTest::addRow("YAML 1.1 booleans") << QByteArray(R"({"a":"yes","b":"off","c":"Y","d":true})");
    // Found by fuzz_yaml: reading the first back ended gpudesk (stod threw).
    QTest::addRow("numbers beyond a double")
        << QByteArray(R"({"a":"1.0e41418","b":"1e-99999","c":1.5e300})");
    QTest::addRow("large numbers")
        << QByteArray(R"({"a":18446744073709551615,"b":"99999999999999999999"})");
    // Issue 33: any user's annotation of 50,000 digits crashed the admin's window (std::regex
    // recursed once a digit); a number's every form still reads back as itself.
    const QByteArray digits(50000, '7');
    QTest::addRow("50,000 digits") << QByteArray(R"({"a":")" + digits + R"(","b":"-)" + digits +
                                                 R"(","c":")" + digits + '.' + digits + R"("})");
    QTest::addRow("number forms") << QByteArray(
        R"({"a":".5","b":"5.","c":"+5","d":"-.5e-3","e":"1E+9","f":".","g":"e5","h":"5e","i":"1.2.3","j":"+","k":"-1.e2"})");
    QTest::addRow("text") << QByteArray(R"({"b":"- dash","c":"#hash","d":"k: v","e":" lead"})");
    // Found by this test: a literal block reads back with one final newline, so text with none
    // (or more) is not written as one.
    QTest::addRow("multi-line text") << QByteArray(
        R"({"a":"two\nlines","b":"script\n","c":"two\n\n","d":"\nfirst blank\n","e":"  indented\nx\n"})");
}

void TestYamlConvert::roundTripKeepsTypes()
{
    QFETCH(QByteArray, json);
    QString error;
    const QString yaml = objectYaml(json, true, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    const QByteArray back = objectJson(yaml, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error + u'\n' + yaml));
    QCOMPARE(QJsonDocument::fromJson(back), QJsonDocument::fromJson(json));
}

void TestYamlConvert::textAfterTheObjectIsRefused_data()
{
    QTest::addColumn<QString>("yaml");
    QTest::addColumn<QString>("error");
    // Found by fuzz_yaml: yaml-cpp's LoadAll never returned on this (and Load dropped the rest).
    QTest::addRow("after a flow mapping")
        << QStringLiteral("{\"kind\": \"Pod\",\n \"spec\": {}},\n\"status\": {}}")
        << QStringLiteral("the text goes on after the object, at line 2: one YAML mapping (an "
                          "object) is expected");
    QTest::addRow("a second document")
        << QStringLiteral("kind: Pod\n---\nkind: Service\n")
        << QStringLiteral("the text goes on after the object, at line 2: one YAML mapping (an "
                          "object) is expected");
    // Found by fuzz_yaml: gpudesk ended on this (yaml-cpp reads \_ as the lone byte 0xA0).
    QTest::addRow("a string that is not UTF-8")
        << QStringLiteral("metadata:\n  name: \"a\\_b\"\n")
        << QStringLiteral("a string in the text is not valid UTF-8 (write \\u00A0 for \\_ and "
                          "\\u0085 for \\N)");
    QTest::addRow("not a mapping")
        << QStringLiteral("- a\n- b\n")
        << QStringLiteral("the text is not one YAML mapping (an object)");
}

void TestYamlConvert::textAfterTheObjectIsRefused()
{
    QFETCH(QString, yaml);
    QFETCH(QString, error);
    QString got;
    QVERIFY(objectJson(yaml, &got).isEmpty());
    QCOMPARE(got, error);
    // A leading document marker and comments are one document still.
    QVERIFY(!objectJson(QStringLiteral("---\n# a pod\nkind: Pod\n# end\n"), &got).isEmpty());
    QCOMPARE(QJsonDocument::fromJson(objectJson(QStringLiteral("{\"a\": 1} # done\n"), &got)),
             QJsonDocument::fromJson(R"({"a":1})"));
}

void TestYamlConvert::deepNesting_data()
{
    QTest::addColumn<int>("depth");
    QTest::addColumn<bool>("objects");  // nested mappings, else sequences
    QTest::addColumn<bool>("readBack"); // the YAML shown applies unchanged
    QTest::addRow("100 mappings") << 100 << true << true;
    QTest::addRow("100 sequences") << 100 << false << true;
    QTest::addRow("400 mappings") << 400 << true << true;
    // As deep as the API server takes (the object itself is the first level).
    QTest::addRow("10,000 levels of mappings") << 9999 << true << false;
    QTest::addRow("10,000 levels of sequences") << 9999 << false << false;
    // Issue 33: deep nesting ended gpudesk; the API server never sends this.
    QTest::addRow("100,000 levels") << 100000 << false << false;
}

void TestYamlConvert::deepNesting()
{
    QFETCH(int, depth);
    QFETCH(bool, objects);
    QFETCH(bool, readBack);
    QByteArray json = R"({"kind":"Pod","spec":)";
    for (int i = 0; i < depth; ++i)
        json += objects ? R"({"a":)" : "[";
    json += "1";
    for (int i = 0; i < depth; ++i)
        json += objects ? "}" : "]";
    json += "}";
    QString error;
    const QString yaml = objectYaml(json, true, &error);
    if (depth + 1 > gpudesk::MaxObjectDepth) {
        QCOMPARE(error, u"the object nests more than 10000 levels deep, deeper than the API server "
                        "takes: not shown"_qs);
        return;
    }
    QVERIFY2(error.isEmpty(), qPrintable(error));
    // Flow style below level 64: linear in the depth, not the 100 MB of block indentation.
    QVERIFY2(yaml.size() < 20 * depth + 4000, qPrintable(QString::number(yaml.size())));
    QString back;
    const QByteArray again = objectJson(yaml, &back);
    if (readBack) {
        QVERIFY2(back.isEmpty(), qPrintable(back));
        QCOMPARE(QJsonDocument::fromJson(again, nullptr), QJsonDocument::fromJson(json));
    } else {
        QVERIFY2(back.startsWith(u"the text nests too deeply to be read as YAML"_qs),
                 qPrintable(back));
    }
}

void TestYamlConvert::nestingCountedOnTheBytes()
{
    using gpudesk::jsonDepth;
    QCOMPARE(jsonDepth("{}"), 1);
    QCOMPARE(jsonDepth(R"({"a":[{"b":1}],"c":{}})"), 3);
    // Brackets in strings, and escaped quotes in them, are text.
    const QByteArray quoted = R"({"a":"[[[{{{","b":"\"[[["})";
    QCOMPARE(jsonDepth(quoted), 1);
    QCOMPARE(jsonDepth(QByteArray(20000, '[')), gpudesk::MaxJsonDepth + 1); // stops counting
    // Past the API server's bound an answer reads as malformed, before anything recurses.
    const QByteArray deep = "{\"items\":" + QByteArray(10001, '[') + QByteArray(10001, ']') + "}";
    QVERIFY(gpudesk::parseBoundedJson(deep).is_discarded());
    const QByteArray ok = "{\"items\":" + QByteArray(9000, '[') + QByteArray(9000, ']') + "}";
    QVERIFY(gpudesk::parseBoundedJson(ok).is_object());
}

QTEST_GUILESS_MAIN(TestYamlConvert)
#include "tst_yamlconvert.moc"
