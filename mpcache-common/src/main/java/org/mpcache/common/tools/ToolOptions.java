package org.mpcache.common.tools;

import java.io.File;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;
import org.apache.hadoop.conf.Configuration;

/**
 * The command line of one of mpCache's tools: its {@code --name} options, flags and positional
 * arguments, each declared once with its argument name, description and default, parsed with
 * commons-cli's {@link DefaultParser} (no abbreviations) and printed by {@link #help()} with
 * every default. A tool builds one in a static method and calls {@link #run} from its
 * {@link org.apache.hadoop.util.Tool#run(String[])}, which ToolRunner calls after taking Hadoop's
 * generic options ({@code -conf}, {@code -D key=value}, ...) off the front: {@code --help} or
 * {@code -h} prints the help and gives 0; a usage error (unknown option, missing value, bad
 * number, value out of range) prints a message naming the option and the bad value, then the help,
 * and gives 1. The typed getters of {@link Values} throw {@link UsageException} for bad values, so
 * a tool reads all its options before it starts anything. Not thread-safe while declaring.
 */
public final class ToolOptions {
  /** The source GenericOptionsParser records for {@code -D} settings; later ones get it too. */
  public static final String COMMAND_LINE = "from command line";
  private static final String SETTINGS = "D";
  private static final int WIDTH = 100;

  private final String command;
  private final String summary;
  private final Options options = new Options();
  private final Map<String, Spec> specs = new LinkedHashMap<>();
  private final List<Spec> arguments = new ArrayList<>();
  private final Map<String, Map<String, String>> presets = new LinkedHashMap<>();

  /** One declared option or positional argument. */
  private record Spec(String name, String label, String argName, String description,
      String defaultValue, String shownDefault) {
  }

  /**
   * Starts the declaration of a tool's command line.
   *
   * @param command the tool's name as the usage line shows it
   * @param summary one or two sentences saying what the tool does
   */
  public ToolOptions(String command, String summary) {
    this.command = command;
    this.summary = summary;
    options.addOption(Option.builder("h").longOpt("help").desc("print this help and exit").build());
  }

  /** Declares a flag {@code --name}, off unless given. */
  public ToolOptions flag(String name, String description) {
    options.addOption(Option.builder().longOpt(name).desc(description).build());
    return add(new Spec(name, "--" + name, null, description, null, "off"));
  }

  /**
   * Declares a flag {@code --name} that, when given, changes the defaults of other options to
   * {@code defaults} (option name to value); the help shows both defaults of each.
   */
  public ToolOptions preset(String name, String description, Map<String, ?> defaults) {
    Map<String, String> d = new LinkedHashMap<>();
    defaults.forEach((k, v) -> d.put(k, String.valueOf(v)));
    presets.put(name, d);
    return flag(name, description);
  }

  /** Declares {@code --name ARG} with a default value, used when the option is not given. */
  public ToolOptions option(String name, String argName, String description, Object defaultValue) {
    String d = String.valueOf(defaultValue);
    return option(name, argName, description, d, d);
  }

  /**
   * Declares {@code --name ARG} without a default value: the getters return null when it is not
   * given; {@code whenAbsent} says in the help what the tool does then.
   */
  public ToolOptions optional(String name, String argName, String description,
      String whenAbsent) {
    return option(name, argName, description, null, whenAbsent);
  }

  private ToolOptions option(String name, String argName, String description,
      String defaultValue, String shownDefault) {
    options.addOption(Option.builder().longOpt(name).hasArg().argName(argName)
        .desc(description).build());
    return add(new Spec(name, "--" + name, argName, description, defaultValue, shownDefault));
  }

  /**
   * Declares {@code -D key=value}, which may be repeated anywhere among the options; {@link #run}
   * applies the settings to the tool's configuration, as ToolRunner does with those given first.
   */
  public ToolOptions settings(String argName, String description) {
    options.addOption(Option.builder(SETTINGS).hasArg().argName(argName).desc(description).build());
    return add(new Spec(SETTINGS, "-D", argName, description, null, "none"));
  }

  /**
   * Declares the next positional argument {@code <name>}; required when {@code defaultValue} is
   * null. The last one declared may take the rest of the arguments: see {@link #remaining}.
   */
  public ToolOptions argument(String name, String description, Object defaultValue) {
    String d = defaultValue == null ? null : String.valueOf(defaultValue);
    Spec s = new Spec(name, "<" + name + ">", name, description, d, d == null ? "required" : d);
    arguments.add(s);
    return add(s);
  }

  /**
   * Declares that the arguments after the positional ones declared so far are all values of
   * {@code <name>}, read with {@link Values#strings} or {@link Values#list}; {@code whenAbsent}
   * says in the help what the tool does when there are none.
   */
  public ToolOptions remaining(String name, String description, String whenAbsent) {
    Spec s = new Spec(name, "<" + name + "> ...", name, description, null, whenAbsent);
    arguments.add(s);
    return add(s);
  }

  private ToolOptions add(Spec spec) {
    if (specs.putIfAbsent(spec.name(), spec) != null) {
      throw new IllegalStateException("declared twice: " + spec.label());
    }
    return this;
  }

  /** The names of the declared options and arguments, in order (without {@code --help}). */
  public List<String> names() {
    return List.copyOf(specs.keySet());
  }

  /** How the help spells {@code name}: {@code --name}, {@code -D} or {@code <name>}. */
  public String label(String name) {
    return spec(name).label();
  }

  /** The argument name of {@code name} as the help shows it, or null for a flag. */
  public String argName(String name) {
    return spec(name).argName();
  }

  /** The default of {@code name} as the help shows it, including any preset's. */
  public String shownDefault(String name) {
    StringBuilder s = new StringBuilder(spec(name).shownDefault());
    presets.forEach((flag, d) -> {
      if (d.containsKey(name)) {
        s.append("; ").append(d.get(name)).append(" with --").append(flag);
      }
    });
    return s.toString();
  }

  private Spec spec(String name) {
    Spec s = specs.get(name);
    if (s == null) {
      throw new IllegalArgumentException("not declared: " + name);
    }
    return s;
  }

  /** The usage: the command line, the summary, every option and argument with its default. */
  public String help() {
    StringBuilder syntax = new StringBuilder(command).append(" [options]");
    for (Spec a : arguments) {
      boolean required = a.defaultValue() == null && !a.label().endsWith("...");
      syntax.append(' ').append(required ? a.label() : "[" + a.label() + "]");
    }
    Options shown = new Options();
    for (Option o : options.getOptions()) {
      Option copy = (Option) o.clone();
      String name = o.hasLongOpt() ? o.getLongOpt() : o.getOpt();
      if (specs.containsKey(name)) {
        copy.setDescription(o.getDescription() + " (default: " + shownDefault(name) + ")");
      }
      shown.addOption(copy);
    }
    StringBuilder footer = new StringBuilder();
    if (!arguments.isEmpty()) {
      footer.append("Arguments:\n");
      for (Spec a : arguments) {
        footer.append(String.format("  %-22s %s (default: %s)%n", a.label(), a.description(),
            shownDefault(a.name())));
      }
    }
    footer.append("Hadoop's generic options (-conf FILE, -D key=value, -fs URI, ...) may come "
        + "first.");
    HelpFormatter formatter = new HelpFormatter();
    formatter.setOptionComparator(null);
    formatter.setSyntaxPrefix("Usage: ");
    StringWriter text = new StringWriter();
    try (PrintWriter w = new PrintWriter(text)) {
      formatter.printHelp(w, WIDTH, syntax.toString(), summary + "\nOptions:", shown, 2, 3,
          footer.toString(), false);
    }
    return text.toString();
  }

  /**
   * Parses {@code args} (what ToolRunner leaves of the command line).
   *
   * @throws UsageException naming the unknown option, the option missing its value, the
   *     unexpected or missing argument
   */
  public Values parse(String[] args) {
    CommandLine line;
    try {
      line = DefaultParser.builder().setAllowPartialMatching(false).build().parse(options, args);
    } catch (UnrecognizedOptionException e) {
      throw new UsageException("unknown option " + e.getOption());
    } catch (MissingArgumentException e) {
      Option o = e.getOption();
      throw new UsageException((o.hasLongOpt() ? "--" + o.getLongOpt() : "-" + o.getOpt())
          + " needs a value: " + o.getArgName());
    } catch (ParseException e) {
      throw new UsageException(e.getMessage());
    }
    Map<String, String> given = new LinkedHashMap<>();
    Map<String, String> settings = new LinkedHashMap<>();
    for (Option o : line.getOptions()) {
      if (o.getOpt() != null && o.getOpt().equals(SETTINGS)) {
        String v = o.getValue();
        int eq = v.indexOf('=');
        if (eq <= 0) {
          throw new UsageException("-D needs key=value, got '" + v + "'");
        }
        settings.put(v.substring(0, eq), v.substring(eq + 1));
      } else if (o.hasLongOpt()) {
        given.put(o.getLongOpt(), o.hasArg() ? o.getValue() : "true");
      }
    }
    List<String> rest = new ArrayList<>(line.getArgList());
    Map<String, List<String>> lists = new LinkedHashMap<>();
    for (Spec a : arguments) {
      if (a.label().endsWith("...")) {
        lists.put(a.name(), List.copyOf(rest));
        rest.clear();
      } else if (!rest.isEmpty()) {
        given.put(a.name(), rest.remove(0));
      } else if (a.defaultValue() == null && !given.containsKey("help")) {
        throw new UsageException("missing argument " + a.label());
      }
    }
    if (!rest.isEmpty()) {
      throw new UsageException("unexpected argument '" + rest.get(0) + "'");
    }
    Map<String, String> defaults = new LinkedHashMap<>();
    specs.values().forEach(s -> defaults.put(s.name(), s.defaultValue()));
    presets.forEach((flag, d) -> {
      if (given.containsKey(flag)) {
        defaults.putAll(d);
      }
    });
    return new Values(given, defaults, lists, settings);
  }

  /**
   * Runs a tool's command line: parses {@code args}; on {@code --help} prints {@link #help()} to
   * {@code out} and returns 0; otherwise applies the {@code -D} settings to {@code conf} (if not
   * null) and returns what {@code body} returns. A {@link UsageException} from parsing or from
   * {@code body} prints the message, prefixed with the command, and the help to {@code err} and
   * gives 1. Other exceptions of {@code body} propagate.
   */
  public int run(String[] args, Configuration conf, PrintStream out, PrintStream err, Body body)
      throws Exception {
    try {
      Values values = parse(args);
      if (values.has("help")) {
        out.print(help());
        out.flush();
        return 0;
      }
      if (conf != null) {
        values.settings().forEach((k, v) -> conf.set(k, v, COMMAND_LINE));
      }
      return body.run(values);
    } catch (UsageException e) {
      if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
        out.print(help());
        out.flush();
        return 0;
      }
      err.println(command + ": " + e.getMessage());
      err.println();
      err.print(help());
      err.flush();
      return 1;
    }
  }

  /**
   * The settings of {@code conf} given on the command line: {@code -D key=value} before the
   * options (applied by ToolRunner) and among them (applied by {@link #run}).
   */
  public static Map<String, String> commandLineSettings(Configuration conf) {
    Map<String, String> s = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : conf) {
      String[] sources = conf.getPropertySources(e.getKey());
      if (sources != null && List.of(sources).contains(COMMAND_LINE)) {
        s.put(e.getKey(), e.getValue());
      }
    }
    return s;
  }

  /** What a tool does with its parsed command line; returns the tool's exit status. */
  @FunctionalInterface
  public interface Body {
    /** Reads {@code values} first (usage errors), then does the tool's work. */
    int run(Values values) throws Exception;
  }

  /**
   * A bad command line: the message names the option or argument and the bad value. It is an
   * {@link IllegalArgumentException}, so code that parses without {@link #run} may treat it as
   * one; {@link #run} turns it into the message, the help and exit status 1.
   */
  public static final class UsageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
      super(message);
    }
  }

  /**
   * The parsed command line: each option's value as given or its default (a preset flag's when
   * that flag was given), read through typed getters that check the value and throw a
   * {@link UsageException} naming the option and the value. Immutable.
   */
  public final class Values {
    private final Map<String, String> given;
    private final Map<String, String> defaults;
    private final Map<String, List<String>> lists;
    private final Map<String, String> settings;

    private Values(Map<String, String> given, Map<String, String> defaults,
        Map<String, List<String>> lists, Map<String, String> settings) {
      this.given = given;
      this.defaults = defaults;
      this.lists = lists;
      this.settings = Collections.unmodifiableMap(settings);
    }

    /** Whether the flag, option or argument {@code name} was given. */
    public boolean has(String name) {
      return given.containsKey(name) || !lists.getOrDefault(name, List.of()).isEmpty();
    }

    /** The {@code -D key=value} settings among the options, in order. */
    public Map<String, String> settings() {
      return settings;
    }

    /** The value as given, else the default; null for an absent {@link #optional} option. */
    public String string(String name) {
      spec(name);
      return given.containsKey(name) ? given.get(name) : defaults.get(name);
    }

    /**
     * The comma-separated values of {@code name} (blanks trimmed), or the rest of the arguments
     * for a {@link #remaining} argument; empty when absent without default.
     */
    public List<String> strings(String name) {
      if (lists.containsKey(name)) {
        return lists.get(name);
      }
      String v = string(name);
      List<String> out = new ArrayList<>();
      if (v != null) {
        for (String s : v.split(",", -1)) {
          out.add(s.trim());
        }
      }
      return out;
    }

    /** The value converted by {@code parse}; its IllegalArgumentException becomes a usage error. */
    public <T> T value(String name, Function<String, T> parse) {
      String v = string(name);
      return v == null ? null : convert(name, v, parse);
    }

    /** Each of {@link #strings} converted by {@code parse}, as {@link #value} does. */
    public <T> List<T> list(String name, Function<String, T> parse) {
      List<T> out = new ArrayList<>();
      for (String s : strings(name)) {
        out.add(convert(name, s, parse));
      }
      return out;
    }

    private <T> T convert(String name, String v, Function<String, T> parse) {
      try {
        return parse.apply(v);
      } catch (UsageException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new UsageException(label(name) + ": " + e.getMessage());
      }
    }

    /** A whole number. */
    public long longValue(String name) {
      return value(name, v -> parseLong(name, v));
    }

    /** A whole number of at least 1. */
    public long positiveLong(String name) {
      return value(name, v -> atLeast(name, v, parseLong(name, v), 1));
    }

    /** A whole number of at least {@code min} that fits an int. */
    public int intAtLeast(String name, int min) {
      return value(name, v -> {
        long n = atLeast(name, v, parseLong(name, v), min);
        if (n > Integer.MAX_VALUE) {
          throw error(label(name) + " must be at most " + Integer.MAX_VALUE + ", got '" + v + "'");
        }
        return (int) n;
      });
    }

    /** A whole number of at least 1 that fits an int. */
    public int positiveInt(String name) {
      return intAtLeast(name, 1);
    }

    /** Comma-separated whole numbers, each at least 1; empty when absent without default. */
    public List<Long> positiveLongs(String name) {
      return list(name, v -> atLeast(name, v, parseLong(name, v), 1));
    }

    /** A finite number of at least {@code min}. */
    public double doubleAtLeast(String name, double min) {
      return value(name, v -> {
        double d = parseDouble(name, v);
        if (!(d >= min)) {
          throw error(label(name) + " must be at least " + min + ", got '" + v + "'");
        }
        return d;
      });
    }

    /** A finite number greater than 0. */
    public double positiveDouble(String name) {
      return value(name, v -> {
        double d = parseDouble(name, v);
        if (!(d > 0)) {
          throw error(label(name) + " must be greater than 0, got '" + v + "'");
        }
        return d;
      });
    }

    /** One of {@code allowed}, exactly. */
    public String oneOf(String name, Collection<String> allowed) {
      return value(name, v -> checkOneOf(name, v, allowed));
    }

    /** Comma-separated values, each one of {@code allowed}. */
    public List<String> allOf(String name, Collection<String> allowed) {
      return list(name, v -> checkOneOf(name, v, allowed));
    }

    /** A local path; null when absent without default. */
    public Path path(String name) {
      return value(name, v -> Paths.get(v));
    }

    /** A local file or directory; null when absent without default. */
    public File file(String name) {
      return value(name, File::new);
    }

    /** A usage error with {@code message}, for checks that span options. */
    public UsageException error(String message) {
      return new UsageException(message);
    }

    private long parseLong(String name, String v) {
      try {
        return Long.parseLong(v.trim());
      } catch (NumberFormatException e) {
        throw error(label(name) + " needs a whole number, got '" + v + "'");
      }
    }

    private double parseDouble(String name, String v) {
      try {
        double d = Double.parseDouble(v.trim());
        if (Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // Reported below.
      }
      throw error(label(name) + " needs a number, got '" + v + "'");
    }

    private long atLeast(String name, String v, long n, long min) {
      if (n < min) {
        throw error(label(name) + " must be at least " + min + ", got '" + v + "'");
      }
      return n;
    }

    private String checkOneOf(String name, String v, Collection<String> allowed) {
      if (!allowed.contains(v)) {
        throw error(label(name) + ": unknown value '" + v + "'; known: "
            + String.join(", ", allowed));
      }
      return v;
    }
  }
}
