// SPDX-License-Identifier: GPL-3.0-or-later
// Label and field selectors, and server-side printing, as the API server does them.
#include "selectors.h"
#include "tableprinter.h"

#include <QTest>

using nlohmann::json;
using sim::FieldSelector;
using sim::LabelSelector;

class TestSimSelectors : public QObject
{
    Q_OBJECT
private slots:
    void labelMatch_data();
    void labelMatch();
    void labelErrors_data();
    void labelErrors();
    void fieldMatch_data();
    void fieldMatch();
    void fieldUnsupported();
    void humanDuration_data();
    void humanDuration();
};

void TestSimSelectors::labelMatch_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<bool>("matches");
    // Labels: app=train, tier=gpu, volcano.sh/queue-name=nlp
    QTest::addRow("empty") << QString() << true;
    QTest::addRow("equals") << QStringLiteral("app=train") << true;
    QTest::addRow("double equals") << QStringLiteral("app==train") << true;
    QTest::addRow("equals other") << QStringLiteral("app=serve") << false;
    QTest::addRow("not equals") << QStringLiteral("app!=serve") << true;
    QTest::addRow("not equals missing key") << QStringLiteral("missing!=x") << true;
    QTest::addRow("prefixed key") << QStringLiteral("volcano.sh/queue-name=nlp") << true;
    QTest::addRow("in") << QStringLiteral("tier in (cpu, gpu)") << true;
    QTest::addRow("notin") << QStringLiteral("tier notin (gpu)") << false;
    QTest::addRow("exists") << QStringLiteral("tier") << true;
    QTest::addRow("not exists") << QStringLiteral("!tier") << false;
    QTest::addRow("and") << QStringLiteral("app=train,tier in (gpu),!missing") << true;
    QTest::addRow("and fails") << QStringLiteral("app=train,tier=cpu") << false;
}

void TestSimSelectors::labelMatch()
{
    QFETCH(QString, selector);
    QFETCH(bool, matches);
    const json labels{{"app", "train"}, {"tier", "gpu"}, {"volcano.sh/queue-name", "nlp"}};
    QString error;
    const auto sel = LabelSelector::parse(selector, &error);
    QVERIFY2(sel.has_value(), qPrintable(error));
    QCOMPARE(sel->matches(labels), matches);
}

void TestSimSelectors::labelErrors_data()
{
    QTest::addColumn<QString>("selector");
    QTest::addColumn<QString>("message");
    QTest::addRow("bad key") << QStringLiteral("-bad=x")
                             << QStringLiteral("invalid label key \"-bad\"");
    QTest::addRow("bad value") << QStringLiteral("a=b c")
                               << QStringLiteral("invalid label value: \"b c\"");
    QTest::addRow("empty term") << QStringLiteral("a=b,,c") << QStringLiteral("found ''");
}

void TestSimSelectors::labelErrors()
{
    QFETCH(QString, selector);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!LabelSelector::parse(selector, &error).has_value());
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestSimSelectors::fieldMatch_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("selector");
    QTest::addColumn<bool>("matches");
    QTest::addRow("node name") << QStringLiteral("pods") << QStringLiteral("spec.nodeName=g4090-01")
                               << true;
    QTest::addRow("node name other")
        << QStringLiteral("pods") << QStringLiteral("spec.nodeName=a800-01") << false;
    QTest::addRow("phase not") << QStringLiteral("pods")
                               << QStringLiteral("status.phase!=Succeeded") << true;
    QTest::addRow("unscheduled") << QStringLiteral("pods") << QStringLiteral("spec.nodeName=")
                                 << false;
    QTest::addRow("two terms") << QStringLiteral("pods")
                               << QStringLiteral("metadata.namespace=user-bob,status.phase=Running")
                               << true;
    QTest::addRow("event object") << QStringLiteral("events")
                                  << QStringLiteral("involvedObject.name=p,involvedObject.kind=Pod")
                                  << true;
    QTest::addRow("event source") << QStringLiteral("events") << QStringLiteral("source=kubelet")
                                  << true;
    QTest::addRow("node unschedulable default")
        << QStringLiteral("nodes") << QStringLiteral("spec.unschedulable=false") << true;
}

void TestSimSelectors::fieldMatch()
{
    QFETCH(QString, resource);
    QFETCH(QString, selector);
    QFETCH(bool, matches);
    const json pod{{"metadata", {{"name", "p"}, {"namespace", "user-bob"}}},
                   {"spec", {{"nodeName", "g4090-01"}}},
                   {"status", {{"phase", "Running"}}}};
    const json event{{"metadata", {{"name", "p.1"}, {"namespace", "user-bob"}}},
                     {"involvedObject", {{"kind", "Pod"}, {"name", "p"}}},
                     {"source", {{"component", "kubelet"}}}};
    const json node{{"metadata", {{"name", "n"}}}, {"spec", json::object()}};
    const json &object = resource == QLatin1String("events")  ? event
                         : resource == QLatin1String("nodes") ? node
                                                              : pod;
    QString error;
    const auto sel = FieldSelector::parse(selector, resource, &error);
    QVERIFY2(sel.has_value(), qPrintable(error));
    QCOMPARE(sel->matches(object), matches);
}

void TestSimSelectors::fieldUnsupported()
{
    QString error;
    QVERIFY(
        !FieldSelector::parse(QStringLiteral("spec.nodeName=x"), QStringLiteral("nodes"), &error));
    QCOMPARE(error, QStringLiteral("field label not supported: spec.nodeName"));
}

void TestSimSelectors::humanDuration_data()
{
    QTest::addColumn<qint64>("seconds");
    QTest::addColumn<QString>("text");
    QTest::addRow("seconds") << qint64(59) << QStringLiteral("59s");
    QTest::addRow("under two minutes") << qint64(119) << QStringLiteral("119s");
    QTest::addRow("minutes and seconds") << qint64(150) << QStringLiteral("2m30s");
    QTest::addRow("minutes") << qint64(45 * 60) << QStringLiteral("45m");
    QTest::addRow("hours and minutes") << qint64(5 * 3600 + 20 * 60) << QStringLiteral("5h20m");
    QTest::addRow("hours") << qint64(30 * 3600) << QStringLiteral("30h");
    QTest::addRow("days and hours") << qint64(3 * 86400 + 4 * 3600) << QStringLiteral("3d4h");
    QTest::addRow("days") << qint64(92 * 86400) << QStringLiteral("92d");
}

void TestSimSelectors::humanDuration()
{
    QFETCH(qint64, seconds);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(sim::TablePrinter::humanDuration(seconds)), text);
}

QTEST_GUILESS_MAIN(TestSimSelectors)
#include "tst_simselectors.moc"
