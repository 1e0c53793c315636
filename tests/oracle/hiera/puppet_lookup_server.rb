# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A pre-loaded `puppet` command line for hiera_oracle.py (its --mode fork).
#
# Starting `puppet lookup` costs about a second of Ruby start-up and code loading before it reads any
# data. This server pays that once: it loads Puppet, runs one throw-away lookup in-process so that
# everything lookup autoloads is in memory, and then, for each request line on stdin, forks a child that
# runs exactly what /usr/bin/puppet runs (Puppet::Util::CommandLine.new.execute) with the request's argv,
# stdout and stderr sent to the request's files. Only the settings object is reset in the child (the
# parent's warm-up initialised it). The child leaves with exit! so it never runs the parent's at_exit
# handlers. hiera_oracle.py --verify-cli compares this mode with real `puppet lookup` processes.
#
# Protocol: one JSON object per line in, {"argv": [...], "out": path, "err": path, "timeout": seconds};
# one JSON object per line out, {"rc": exit status} ("rc": null and "timeout": true when killed).
# The first line out is {"ready": true, "puppet": version} once the warm-up is done.
require 'json'
require 'tmpdir'
require 'fileutils'
require 'puppet'
require 'puppet/util/command_line'

def run_command_line(argv)
  Puppet::Util::CommandLine.new('puppet', argv).execute
  0
rescue SystemExit => e
  e.status
end

def warm_up
  Dir.mktmpdir('hiera-oracle-warm') do |dir|
    env = File.join(dir, 'code', 'environments', 'production')
    FileUtils.mkdir_p(File.join(env, 'data'))
    FileUtils.mkdir_p(File.join(dir, 'conf'))
    File.write(File.join(env, 'hiera.yaml'),
               "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
    File.write(File.join(env, 'data', 'common.yaml'),
               "lookup_options:\n  k: {merge: deep}\nk: {a: '%{facts.x}', b: '%{lookup(\"j\")}'}\nj: [1]\n")
    facts = File.join(dir, 'facts.json')
    File.write(facts, JSON.dump('x' => 'y', 'hostname' => 'n', 'domain' => 'd', 'fqdn' => 'n.d', 'clientcert' => 'n.d'))
    saved_out = $stdout.dup
    saved_err = $stderr.dup
    begin
      $stdout.reopen(File::NULL, 'w')
      $stderr.reopen(File::NULL, 'w')
      run_command_line(['lookup', '--confdir', File.join(dir, 'conf'), '--codedir', File.join(dir, 'code'),
                        '--vardir', File.join(dir, 'var'), '--environment', 'production', '--node', 'n.d',
                        '--facts', facts, '--render-as', 'json', '--explain', 'k'])
    ensure
      $stdout.reopen(saved_out)
      $stderr.reopen(saved_err)
    end
  end
end

def run_request(request)
  pid = fork do
    $stdout.reopen(request['out'], 'w')
    $stderr.reopen(request['err'], 'w')
    Puppet.settings.send(:clear_everything_for_tests)
    status = run_command_line(request['argv'])
    $stdout.flush
    $stderr.flush
    exit!(status)
  end
  deadline = Time.now + (request['timeout'] || 120)
  loop do
    done = Process.wait(pid, Process::WNOHANG)
    return { 'rc' => $?.exitstatus } if done
    if Time.now > deadline
      Process.kill('KILL', pid)
      Process.wait(pid)
      return { 'rc' => nil, 'timeout' => true }
    end
    sleep 0.005
  end
end

warm_up
$stdout.sync = true
puts JSON.dump('ready' => true, 'puppet' => Puppet.version)
STDIN.each_line do |line|
  puts JSON.dump(run_request(JSON.parse(line)))
end
