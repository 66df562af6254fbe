#include "ui/editor/CodeEditor.h"
#include "store/audit_key.h"
#include "ui/demo/DemoStore.h"
#include "ui/mainwindow/MainWindow.h"
#include "ui/settings/AppSettings.h"
#include "ui/style/Theme.h"
#include "store/store.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QSocketNotifier>
#include <QTranslator>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

namespace {

void describeApplication()
{
    QCoreApplication::setOrganizationName(QStringLiteral("Sandbench"));
    QCoreApplication::setApplicationName(QStringLiteral("sandbench-gui"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SANDBENCH_VERSION));
}

// Qt's own strings and Sandbench's in the language chosen in the settings, else the user's, for as long as
// this lives. English needs no translator.
class Translators {
public:
    Translators()
    {
        const QString chosen = sb::ui::AppSettings::load().language;
        if (chosen == QLatin1String("en"))
            return;
        const QLocale locale = chosen.isEmpty() ? QLocale() : QLocale(chosen);
        if (!chosen.isEmpty())
            QLocale::setDefault(locale);
        if (m_qt.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&m_qt);
        if (m_sandbench.load(locale, QStringLiteral("sandbench"), QStringLiteral("_"), QStringLiteral(":/i18n")))
            QCoreApplication::installTranslator(&m_sandbench);
    }

private:
    QTranslator m_qt;
    QTranslator m_sandbench;
};

// The options, for both readings of the command line.
struct CommandLine {
    QCommandLineParser parser;
    QCommandLineOption store{
        QStringLiteral("store"),
        QCoreApplication::translate("main", "The store file to use (default: $SANDBENCH_STORE or the user's data folder)."),
        QCoreApplication::translate("main", "PATH")};
    QCommandLineOption demo{
        QStringLiteral("demo"),
        QCoreApplication::translate("main", "Open a new demo store, for training: snippets of every outcome, the rules "
                                            "demo, an agent session, sandboxes with checkpoints, and Play demo. It "
                                            "lives in a private temporary folder removed when the window closes; "
                                            "your own store is not touched.")};

    CommandLine()
    {
        parser.setApplicationDescription(
            QCoreApplication::translate("main", "Run code you do not trust in an OS sandbox."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(store);
        parser.addOption(demo);
    }
};

// --help and --version, and a refusal of --demo with --store, answered before the window system is touched, so
// that they work with no display. An unknown option is left to the second reading, under QApplication: it may be
// one of Qt's own (-platform), which QApplication takes out of the arguments first.
void answerBeforeWindow(int argc, char* argv[])
{
    QCoreApplication app(argc, argv);
    describeApplication();
    const Translators translators;
    CommandLine line;
    const bool parsed = line.parser.parse(QCoreApplication::arguments());
    const bool help = line.parser.isSet(QStringLiteral("help")) || line.parser.isSet(QStringLiteral("help-all"));
    const bool version = line.parser.isSet(QStringLiteral("version"));
    if (parsed && (help || version))
        line.parser.process(app); // prints and exits
    if (help)
        line.parser.showHelp(); // exits
    if (version)
        line.parser.showVersion(); // exits
    if (line.parser.isSet(line.demo) && line.parser.isSet(line.store)) {
        const QString message = QCoreApplication::translate(
            "main", "%1: --demo opens a new demo store of its own and cannot be used with --store.\n")
                                    .arg(QCoreApplication::applicationName());
        std::fputs(message.toLocal8Bit().constData(), stderr);
        std::exit(2);
    }
}

// SIGTERM, SIGINT and SIGHUP (a logout, a kill, Ctrl+C in the terminal that started it) end the program as a
// close does, without asking: `end` runs, the event loop ends, what main() owns is destroyed (a demo store's
// folder removed), and the process then ends by the same signal. The handler only writes the signal's number to a
// pipe, which the event loop reads. Handlers are not inherited across exec, so nothing this process starts sees them.
class EndOnSignal {
public:
    explicit EndOnSignal(std::function<void()> end)
    {
        if (::pipe2(s_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
            return; // the default action stays: the signal ends the process at once
        m_notifier = std::make_unique<QSocketNotifier>(s_pipe[0], QSocketNotifier::Read);
        QObject::connect(m_notifier.get(), &QSocketNotifier::activated, [end = std::move(end)] {
            unsigned char signo = 0;
            if (::read(s_pipe[0], &signo, 1) != 1 || s_received != 0)
                return;
            s_received = signo;
            end();
            QCoreApplication::exit(128 + signo);
        });
        struct sigaction action {};
        action.sa_handler = &EndOnSignal::handle;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESTART;
        for (const int signo : {SIGTERM, SIGINT, SIGHUP})
            ::sigaction(signo, &action, nullptr);
    }

    // Ends the process by the signal that ended the event loop, if one did.
    static void reraise()
    {
        if (s_received == 0)
            return;
        ::signal(s_received, SIG_DFL);
        ::raise(s_received);
    }

private:
    static void handle(int signo)
    {
        const auto byte = static_cast<unsigned char>(signo);
        [[maybe_unused]] const auto written = ::write(s_pipe[1], &byte, 1);
    }

    static inline int s_pipe[2] = {-1, -1};
    static inline volatile std::sig_atomic_t s_received = 0;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

int run(int argc, char* argv[])
{

    QApplication app(argc, argv);
    describeApplication();
    QApplication::setDesktopFileName(QStringLiteral("io.github.sandbench.Sandbench"));
    const Translators translators;
    QApplication::setApplicationDisplayName(QCoreApplication::translate("main", "Sandbench"));
    CommandLine line;
    line.parser.process(app);
    const sb::ui::AppSettings settings = sb::ui::AppSettings::load();
    if (settings.theme != sb::ui::Theme::System)
        sb::ui::applyTheme(settings.theme);
    if (!settings.editorFont.family().isEmpty())
        sb::ui::CodeEditor::setSharedFont(settings.editorFont);
    // Demo mode works on a store of its own (ui/demo/DemoStore.h), never $SANDBENCH_STORE nor the user's, and
    // keeps the audit key of its log in its folder, away from the user's keys. Both are set in the environment too,
    // for what this process starts (an agent's own `sandbench`, say) to find the demo store and not the user's.
    std::unique_ptr<sb::ui::DemoStore> demo;
    if (line.parser.isSet(line.demo)) {
        demo = std::make_unique<sb::ui::DemoStore>();
        if (!demo->isValid()) {
            const QString message = QCoreApplication::translate("main", "%1: the demo store could not be made: %2\n")
                                        .arg(QCoreApplication::applicationName(), demo->errorString());
            std::fputs(message.toLocal8Bit().constData(), stderr);
            return 1;
        }
        qputenv(sb::kAuditKeysEnv.data(), QByteArray::fromStdString(demo->auditKeysFolder().string()));
        qputenv("SANDBENCH_STORE", QByteArray::fromStdString(demo->storePath().string()));
    }
    // --store first, then $SANDBENCH_STORE, then the store chosen in the settings, then the default location.
    std::filesystem::path named;
    if (line.parser.isSet(line.store))
        named = line.parser.value(line.store).toStdString();
    else if (qEnvironmentVariableIsEmpty("SANDBENCH_STORE") && !settings.storePath.isEmpty())
        named = settings.storePath.toStdString();
    const sb::StoreLocation store = demo ? sb::StoreLocation{demo->storePath(), false} : sb::Store::locate(named);

    sb::ui::MainWindow window(store);
    if (demo)
        window.markDemoStore();
    const EndOnSignal endOnSignal([&window] { window.endWithoutAsking(); });
    window.show();
    if (const auto error = window.openStore()) {
        // Errors are values up to here; this is the one place that turns one into a dialog.
        auto* box = new QMessageBox(QMessageBox::Critical, QCoreApplication::translate("main", "Store unavailable"),
                                    QCoreApplication::translate("main", "The store could not be opened:\n%1\n\n%2")
                                        .arg(*error, QString::fromStdString(store.path.string())),
                                    QMessageBox::Ok, &window);
        box->setInformativeText(QCoreApplication::translate(
            "main", "You can still edit and run snippets; runs are not recorded and the file is left untouched."));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    } else if (demo) {
        window.seedDemoStore();
    }
    return QApplication::exec();
}

} // namespace

int main(int argc, char* argv[])
{
    answerBeforeWindow(argc, argv);
    const int status = run(argc, argv);
    EndOnSignal::reraise();
    return status;
}
