package checkout

import (
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The port's Gradle build needs the Gradle distribution from services.gradle.org and writes
// build/ and .gradle/ into the checkout, so the port is compiled here by Maven from a POM made
// in the cache: the checkout's sources, the dependencies its build.gradle declares.
var (
	gradleDep     = regexp.MustCompile(`(?m)^\s*(?:api|implementation)\s*\(?\s*['"]([^'":]+:[^'":]+:[^'"]+)['"]`)
	gradleVersion = regexp.MustCompile(`(?m)^\s*version\s*=\s*['"]([^'"]+)['"]`)
)

// javaDeps reads the runtime dependencies and the version a build.gradle declares.
func javaDeps(gradle string) (deps []string, version string) {
	for _, m := range gradleDep.FindAllStringSubmatch(gradle, -1) {
		deps = append(deps, m[1])
	}
	if m := gradleVersion.FindStringSubmatch(gradle); m != nil {
		version = m[1]
	}
	return deps, version
}

func (b *Builder) java(ctx context.Context, impl, dir string) ([]string, error) {
	if err := b.need("mvn"); err != nil {
		return nil, err
	}
	jdk := findJDK(b.getenv("JAVA_HOME"))
	if jdk == "" {
		return nil, &missingTool{fmt.Errorf("JDK 21+ not found (JAVA_HOME, /usr/lib/jvm/*)")}
	}
	gradle, err := os.ReadFile(filepath.Join(dir, "build.gradle"))
	if err != nil {
		return nil, err
	}
	deps, version := javaDeps(string(gradle))
	if version == "" {
		version = "0-checkout"
	}
	src := filepath.Join(dir, "src", "main", "java")
	if !exists(src) {
		return nil, fmt.Errorf("%s has no src/main/java", dir)
	}
	work, _, err := b.copyPort(impl, filepath.Join(dir, "src", "main"), "java-src")
	if err != nil {
		return nil, err
	}
	jar := filepath.Join(work, "target", "toolnexus-"+version+".jar")
	env := []string{"TOOLNEXUS_JAVA=" + jar, "TOOLNEXUS_JAVA_DEPS=" + strings.Join(deps, " ")}
	if exists(jar) {
		b.say(impl, "built jar %s is current", jar)
		return env, nil
	}
	pom := filepath.Join(work, "pom.xml")
	if err := os.WriteFile(pom, []byte(javaPOM(work, version, deps)), 0o644); err != nil {
		return nil, err
	}
	logf, done := b.logFor(work)
	defer done()
	b.say(impl, "mvn package with %s (the checkout's sources, %d dependencies from its build.gradle)", filepath.Base(jdk), len(deps))
	if err := step(ctx, b.Timeout, work, logf, []string{"JAVA_HOME=" + jdk}, "mvn", "-q", "-B", "-f", pom, "package", "-DskipTests"); err != nil {
		return nil, err
	}
	if !exists(jar) {
		return nil, fmt.Errorf("mvn package wrote no %s", jar)
	}
	return env, nil
}

// javaPOM compiles <work>/java (the copied src/main/java) and resources into target/.
func javaPOM(work, version string, deps []string) string {
	var d strings.Builder
	for _, c := range deps {
		p := strings.SplitN(c, ":", 3)
		fmt.Fprintf(&d, "<dependency><groupId>%s</groupId><artifactId>%s</artifactId><version>%s</version></dependency>\n",
			html.EscapeString(p[0]), html.EscapeString(p[1]), html.EscapeString(p[2]))
	}
	return fmt.Sprintf(`<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
<groupId>io.github.muthuishere</groupId><artifactId>toolnexus</artifactId><version>%[1]s</version>
<properties><maven.compiler.release>21</maven.compiler.release><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>
<dependencies>
%[2]s</dependencies>
<build>
<sourceDirectory>%[3]s/java</sourceDirectory>
<resources><resource><directory>%[3]s/resources</directory></resource></resources>
<plugins>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-compiler-plugin</artifactId><version>3.13.0</version>
<configuration><parameters>true</parameters></configuration></plugin>
<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-jar-plugin</artifactId><version>3.4.2</version>
<configuration><archive><manifestEntries><Implementation-Version>%[1]s</Implementation-Version></manifestEntries></archive></configuration></plugin>
</plugins>
</build>
</project>
`, html.EscapeString(version), d.String(), html.EscapeString(work))
}

var releaseVersion = regexp.MustCompile(`(?m)^JAVA_VERSION="(?:1\.)?(\d+)`)

// findJDK is the first JDK >= 21 (with javac) among JAVA_HOME and /usr/lib/jvm/*, newest first.
func findJDK(javaHome string) string {
	cands := []string{javaHome}
	dirs, _ := filepath.Glob("/usr/lib/jvm/*")
	sort.Sort(sort.Reverse(sort.StringSlice(dirs)))
	cands = append(cands, dirs...)
	for _, d := range cands {
		if d == "" || !exists(filepath.Join(d, "bin", "javac")) {
			continue
		}
		rel, err := os.ReadFile(filepath.Join(d, "release"))
		if err != nil {
			continue
		}
		if m := releaseVersion.FindSubmatch(rel); m != nil {
			if n, _ := strconv.Atoi(string(m[1])); n >= 21 {
				return d
			}
		}
	}
	return ""
}
