// A Java HttpClient the audit suite runs: a retry loop. `java Loop.java --compile-to DIR Loop.java`
// compiles it once with the JDK's compiler (as the source launcher does), so each case only starts
// a JVM.
//
// Usage: java -cp DIR Loop MODE WORKERS URL KEY SESSION
//   MODE    good (sleeps Retry-After, doubling from it) | bad (retries after a fixed 50 ms)
//   WORKERS how many calls run at once, each on its own thread
// Prints the final status of each call, comma-separated.
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

public class Loop {
  static int call(HttpClient client, String mode, String url, String key, String session) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/pets?limit=1"))
        .header("Authorization", "Bearer " + key)
        .header("X-Mock-Session", session)
        .timeout(Duration.ofSeconds(10))
        .build();
    int status = 0;
    for (int attempt = 0; attempt < 4; attempt++) {
      HttpResponse<Void> response = client.send(request, HttpResponse.BodyHandlers.discarding());
      status = response.statusCode();
      if (status != 429) return status;
      long waitMs = 50;
      if (mode.equals("good")) {
        long seconds = response.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
        waitMs = (seconds * 1000) << attempt;
      }
      Thread.sleep(waitMs);
    }
    return status;
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("--compile-to")) {
      int failed = javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", args[1], args[2]);
      System.exit(failed);
    }
    String mode = args[0];
    int workers = Integer.parseInt(args[1]);
    String url = args[2], key = args[3], session = args[4];
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    // Each worker has its own client, and the calls start together: a shared pool hands a worker
    // the connection another worker's 429 just came on, and a request there is judged as a retry.
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 0; i < workers; i++) {
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      Callable<Integer> task = () -> {
        start.await();
        return call(client, mode, url, key, session);
      };
      results.add(pool.submit(task));
    }
    start.countDown();
    List<String> statuses = new ArrayList<>();
    for (Future<Integer> result : results) statuses.add(String.valueOf(result.get()));
    pool.shutdown();
    System.out.println(String.join(",", statuses));
  }
}
