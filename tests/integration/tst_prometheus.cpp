// SPDX-License-Identifier: GPL-3.0-or-later
// History from a real Prometheus scraping a real node-exporter whose textfile collector serves
// DCGM-exporter-format metrics written by this test: query_range gives back exactly what was
// written, in order, and the node chart's Prometheus range shows those series; likewise the
// node's CPU, memory and load from node-exporter's own metric names, found by the node's
// address. Plus Prometheus's own errors and an address with nothing behind it.
#include "clusterstore.h"
#include "historyservice.h"
#include "prometheusclient.h"
#include "telemetrychart.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QSaveFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace gpudesk;

class TestPrometheus : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void seriesEqualWhatWasWritten();
    void chartShowsPrometheusHistory();
    void chartShowsNodeExporterHistory();
    void errors();

private:
    void write(int gpu0, int gpu1);
    void writeNode(qint64 tick);
    double lastValue(const QString &q);
    QList<PromSeries> query(const QString &q, qint64 from, qint64 to, int step, QString *error);

    QString m_textfile;
    QUrl m_url;
    qint64 m_start = 0;
};

void TestPrometheus::initTestCase()
{
    const QString peers = qEnvironmentVariable("GPUDESK_PEERS");
    QVERIFY(!peers.isEmpty());
    QFile url(peers + QStringLiteral("/prometheus/url"));
    QVERIFY(url.open(QIODevice::ReadOnly));
    m_url = QUrl(QString::fromUtf8(url.readAll().trimmed()));
    m_textfile = peers + QStringLiteral("/prometheus/textfile/dcgm.prom");
}

void TestPrometheus::writeNode(qint64 tick)
{
    // node-exporter's own names, as its cpu, meminfo and loadavg collectors write them (those are
    // off in the test peers, so the textfile may carry them). The CPU counters always keep idle at
    // three times user, so any increase over any window is 25 % busy, whatever an earlier run of
    // this test left in Prometheus.
    QSaveFile f(QFileInfo(m_textfile).dir().filePath(QStringLiteral("node.prom")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# TYPE node_cpu_seconds_total counter\n"
            "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} " +
            QByteArray::number(3 * tick) +
            "\n"
            "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} " +
            QByteArray::number(tick) +
            "\n"
            "# TYPE node_memory_MemTotal_bytes gauge\n"
            "node_memory_MemTotal_bytes 68719476736\n"
            "# TYPE node_memory_MemAvailable_bytes gauge\n"
            "node_memory_MemAvailable_bytes 17179869184\n"
            "# TYPE node_load1 gauge\n"
            "node_load1 2.5\n");
    QVERIFY(f.commit());
}

double TestPrometheus::lastValue(const QString &q)
{
    QString error;
    const auto s = query(q, QDateTime::currentMSecsSinceEpoch() - 60000,
                         QDateTime::currentMSecsSinceEpoch(), 1, &error);
    return s.isEmpty() || s.first().points.isEmpty() ? -1 : s.first().points.last().y();
}

void TestPrometheus::write(int gpu0, int gpu1)
{
    // Written whole and renamed into place, as node-exporter's textfile collector wants.
    QSaveFile f(m_textfile);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray text = "# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n"
                      "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n";
    const int values[] = {gpu0, gpu1};
    for (int g = 0; g < 2; ++g)
        text += "DCGM_FI_DEV_GPU_UTIL{gpu=\"" + QByteArray::number(g) + "\",UUID=\"GPU-test-" +
                QByteArray::number(g) + "\",device=\"nvidia" + QByteArray::number(g) +
                "\",modelName=\"NVIDIA A800-SXM4-80GB\",Hostname=\"a800-test\"} " +
                QByteArray::number(values[g]) + '\n';
    f.write(text);
    QVERIFY(f.commit());
}

QList<PromSeries> TestPrometheus::query(const QString &q, qint64 from, qint64 to, int step,
                                        QString *error)
{
    PrometheusClient client(m_url);
    QList<PromSeries> out;
    bool done = false;
    client.queryRange(q, from, to, step, this, [&](const QList<PromSeries> &s, const QString &e) {
        out = s;
        *error = e;
        done = true;
    });
    if (!QTest::qWaitFor([&] { return done; }, 30000))
        *error = QStringLiteral("no answer in 30 s");
    return out;
}

namespace {

// The values of a series with consecutive repeats folded: what was written, in order.
QList<double> runs(const QList<QPointF> &points)
{
    QList<double> out;
    for (const QPointF &p : points)
        if (out.isEmpty() || out.last() != p.y())
            out << p.y();
    return out;
}

const QString kQuery = QStringLiteral("DCGM_FI_DEV_GPU_UTIL{Hostname=\"a800-test\"}");

} // namespace

void TestPrometheus::seriesEqualWhatWasWritten()
{
    m_start = QDateTime::currentMSecsSinceEpoch();
    write(37, 64);
    QString error;
    // Wait until Prometheus has scraped the first values (scrape interval 1 s).
    // From the first scrape that saw 37 (a rerun starts from the last run's values).
    qint64 from = 0;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto s = query(kQuery, m_start, QDateTime::currentMSecsSinceEpoch(), 1, &error);
            for (const PromSeries &one : s)
                if (one.labels.value(QStringLiteral("gpu")) == QLatin1String("0") &&
                    !one.points.isEmpty() && one.points.last().y() == 37)
                    from = qint64(one.points.last().x());
            return from > 0;
        }(),
        30000);
    write(81, 64);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto s = query(kQuery, m_start, QDateTime::currentMSecsSinceEpoch(), 1, &error);
            for (const PromSeries &one : s)
                if (one.labels.value(QStringLiteral("gpu")) == QLatin1String("0") &&
                    !one.points.isEmpty() && one.points.last().y() == 81)
                    return true;
            return false;
        }(),
        30000);
    const qint64 end = QDateTime::currentMSecsSinceEpoch();
    QList<PromSeries> s = query(kQuery, from, end, 1, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    std::sort(s.begin(), s.end(), [](const PromSeries &a, const PromSeries &b) {
        return a.labels.value(QStringLiteral("gpu")) < b.labels.value(QStringLiteral("gpu"));
    });
    QCOMPARE(s.size(), 2);
    QCOMPARE(s[0].labels.value(QStringLiteral("UUID")), QStringLiteral("GPU-test-0"));
    QCOMPARE(runs(s[0].points), (QList<double>{37, 81}));
    QCOMPARE(runs(s[1].points), (QList<double>{64}));
    for (const QPointF &p : s[0].points)
        QVERIFY(p.x() >= double(from) && p.x() <= double(end + 1000));
    // One point a second, in order.
    for (qsizetype i = 1; i < s[0].points.size(); ++i)
        QCOMPARE(s[0].points[i].x() - s[0].points[i - 1].x(), 1000.0);
}

void TestPrometheus::chartShowsPrometheusHistory()
{
    ClusterStore store;
    TelemetryStore telemetry(&store);
    HistoryService history(&store);
    // The window is made before the Prometheus is known (issue 34: its ranges never came, and
    // "Last 24 hours" drew the minutes since launch).
    TelemetryChart chart(&telemetry);
    chart.setHistory(&history);
    QCOMPARE(chart.prometheusRange(), -1);
    QCOMPARE(chart.rangeCount(), 3);
    history.setPrometheus(m_url);
    QCOMPARE(chart.rangeCount(), 4); // the sampled day gives way to Prometheus' day and week
    QVERIFY(chart.prometheusRange() == 2);
    chart.resize(800, 400);
    chart.show();
    chart.setNode(QStringLiteral("a800-test"));
    QSignalSpy answered(&chart, &TelemetryChart::prometheusAnswered);
    chart.selectRange(chart.prometheusRange()); // the last 24 hours, from Prometheus
    QVERIFY(answered.wait(30000) || answered.size() > 0);
    QCOMPARE(answered.last().first().toString(), QString());
    QCOMPARE(chart.seriesCount(), 2);
    QCOMPARE(chart.seriesName(0), QStringLiteral("GPU 0"));
    QCOMPARE(chart.seriesName(1), QStringLiteral("GPU 1"));
    // 144 s steps over a day: the test's values are a few points at the end, and only those.
    const QList<QPointF> gpu0 = chart.seriesPoints(0);
    QVERIFY(!gpu0.isEmpty());
    QCOMPARE(gpu0.last().y(), 81.0);
    for (const QPointF &p : gpu0)
        QVERIFY(p.y() == 37 || p.y() == 81 || p.y() == 0);
    for (const QPointF &p : chart.seriesPoints(1))
        QVERIFY(p.y() == 64 || p.y() == 0);
}

void TestPrometheus::chartShowsNodeExporterHistory()
{
    // Two scrapes of rising counters, so that a rate exists.
    const qint64 tick = QDateTime::currentSecsSinceEpoch();
    const QString user = QStringLiteral("node_cpu_seconds_total{mode=\"user\"}");
    writeNode(tick);
    QTRY_COMPARE_WITH_TIMEOUT(lastValue(user), double(tick), 30000);
    writeNode(tick + 40);
    QTRY_COMPARE_WITH_TIMEOUT(lastValue(user), double(tick + 40), 30000);

    // The node as the API names it; node-exporter's target is its InternalIP and port.
    ClusterStore store;
    NodeInfo node;
    node.name = QStringLiteral("gpu-node-7");
    node.internalIP = QStringLiteral("127.0.0.1");
    node.ready = true;
    store.replaceNodes({node});
    TelemetryStore telemetry(&store);
    HistoryService history(&store);
    history.setPrometheus(m_url);
    TelemetryChart chart(&telemetry);
    chart.setHistory(&history);
    chart.resize(800, 400);
    chart.show();
    chart.setNode(node.name);
    QSignalSpy answered(&chart, &TelemetryChart::prometheusAnswered);
    using M = TelemetryHistory::Metric;
    const struct
    {
        M metric;
        QString name;
        double value;
    } expected[] = {{M::CpuPercent, QStringLiteral("CPU busy (%)"), 25},
                    {M::MemoryPercent, QStringLiteral("Memory used (%)"), 75},
                    {M::Load1, QStringLiteral("Load (1 min)"), 2.5}};
    chart.selectRange(chart.prometheusRange()); // the last 24 hours, from Prometheus
    for (const auto &e : expected) {
        answered.clear();
        chart.selectMetric(e.metric);
        QTRY_VERIFY_WITH_TIMEOUT(!answered.isEmpty(), 30000);
        QCOMPARE(answered.last().first().toString(), QString());
        QVERIFY2(chart.seriesCount() == 1,
                 qPrintable(chart.findChild<QLabel *>(QStringLiteral("chartNote"))->text()));
        QCOMPARE(chart.seriesName(0), e.name);
        const QList<QPointF> points = chart.seriesPoints(0);
        QVERIFY(!points.isEmpty());
        for (const QPointF &p : points)
            QVERIFY2(qAbs(p.y() - e.value) < 1e-9, qPrintable(QString::number(p.y())));
        if (e.metric == M::CpuPercent) {
            // For a person to look at (the working directory is the build tree).
            QDir().mkpath(QStringLiteral("screenshots"));
            QVERIFY(chart.grab().save(QStringLiteral("screenshots/chart-prometheus-cpu.png")));
        }
    }

    // A node that node-exporter does not know: no series, and a note that says which instance
    // was looked for.
    NodeInfo other = node;
    other.name = QStringLiteral("gpu-node-8");
    other.internalIP = QStringLiteral("10.0.0.8");
    store.replaceNodes({node, other});
    answered.clear();
    chart.setNode(other.name);
    chart.selectMetric(M::Load1);
    QTRY_VERIFY_WITH_TIMEOUT(!answered.isEmpty(), 30000);
    QCOMPARE(chart.seriesCount(), 0);
    const auto *note = chart.findChild<QLabel *>(QStringLiteral("chartNote"));
    QVERIFY(note && note->isVisible());
    QVERIFY2(note->text().contains(QLatin1String("10.0.0.8")), qPrintable(note->text()));
    // The query itself: the node's name and address as escaped alternatives.
    QCOMPARE(PrometheusClient::nodeExporterQuery(
                 int(M::Load1), {QStringLiteral("a.b"), QStringLiteral("10.0.0.8")}, 144),
             QStringLiteral("avg(node_load1{instance=~\"(?:a\\\\.b|10\\\\.0\\\\.0\\\\.8)"
                            "(?::[0-9]+)?\"})"));
    QVERIFY(PrometheusClient::nodeExporterQuery(int(M::Utilization), {node.name}, 144).isEmpty());
}

void TestPrometheus::errors()
{
    QString error;
    query(QStringLiteral("DCGM_FI_DEV_GPU_UTIL{"), m_start, QDateTime::currentMSecsSinceEpoch(), 1,
          &error);
    QVERIFY2(error.contains(QLatin1String("bad_data")), qPrintable(error));
    // Nothing listening.
    QTcpServer s;
    QVERIFY(s.listen(QHostAddress::LocalHost));
    const quint16 port = s.serverPort();
    s.close();
    PrometheusClient dead(QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port)));
    bool done = false;
    dead.queryRange(kQuery, 0, 1000, 1, this, [&](const QList<PromSeries> &r, const QString &e) {
        QVERIFY(r.isEmpty());
        error = e;
        done = true;
    });
    QTRY_VERIFY(done);
    QVERIFY2(error.startsWith(QLatin1String("Cannot reach Prometheus at http://127.0.0.1:")),
             qPrintable(error));
    // A broken answer.
    QString parseError;
    QVERIFY(PrometheusClient::parseMatrix("{\"status\":\"success\",\"data\":{\"resultType\":"
                                          "\"vector\",\"result\":[]}}",
                                          &parseError)
                .isEmpty());
    QVERIFY(parseError.contains(QLatin1String("vector")));
    PrometheusClient::parseMatrix("<html>", &parseError);
    QVERIFY(parseError.contains(QLatin1String("not JSON")));
    QCOMPARE(PrometheusClient::quoted(QStringLiteral("a\"b\\c")),
             QStringLiteral("\"a\\\"b\\\\c\""));
}

QTEST_MAIN(TestPrometheus)
#include "tst_prometheus.moc"
